"""The engines at work for the window: the analysis run, its workers and status, locating and installing engines, KataGo's warm-up."""
