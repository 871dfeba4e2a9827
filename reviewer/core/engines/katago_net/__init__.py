"""KataGo's network evaluated in Reviewer's own process: its model file (`model`), its input
features (`features`, on KataGo's board bookkeeping in `board`, with ladders and pass-alive areas in
`tactics`), the forward pass (`network` in numpy, `onnx_graph` and `runtime` for ONNX Runtime), and
KataGo's 1- and 2-visit searches built from them (`evaluate`)."""
