import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # the icon test draws with Qt
