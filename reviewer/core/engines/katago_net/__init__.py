"""KataGo's network evaluated in Reviewer's own process: its model file (`model`), its input
features (`features`, with ladders and pass-alive areas in `tactics`), the forward pass in numpy
(`network`), and KataGo's 1- and 2-visit searches built from them (`evaluate`)."""
