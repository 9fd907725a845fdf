"""The Settings dialog's tabs, one module each (desktop/settings_dialog.py assembles them).

Every tab is a QWidget built from a copy of the Settings that the dialog shares with all
tabs, and writes what the user chose back with `collect(settings)`; it raises
ConfigError (with a message for the user) for a value it cannot accept. Slow work
(network, keyring, downloads, the vault) goes through the app's Background workers.
"""
