"""The desktop app: Qt widgets composed around one `ReviewSession` (see `reviewer.gui.common.session`)."""
