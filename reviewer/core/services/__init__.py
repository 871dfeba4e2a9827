"""What a user asks for, Qt-free: the services the GUI and the commands call."""
