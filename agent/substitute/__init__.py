"""Stand-ins: realistic, same type and shape, consistent within a conversation."""
