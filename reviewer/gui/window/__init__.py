"""The main window's shell: starting the app, the window, its actions, menus and toolbar, and its dialogs."""
