"""The Qt desktop app. Thin: it renders state and calls agent/."""
