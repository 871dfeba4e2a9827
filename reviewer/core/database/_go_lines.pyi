def replay(
    width: int, height: int, black_table: bytes, white_table: bytes, salt: int, black_to_move: int, indexes: bytes,
    symmetries: bytes, setup_black: bytes, setup_white: bytes, points: bytes, colours: bytes, last_to_move: int, /
) -> tuple[bytes, bytes, bytes] | int: ...
