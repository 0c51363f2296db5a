"""LLM access: litellm streaming wrapper, retries, the provider error table, context windows."""
