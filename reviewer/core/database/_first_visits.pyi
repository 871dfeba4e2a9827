import numpy as np
import numpy.typing as npt

def first_visits(
    keys: npt.NDArray[np.int64], positions_per_game: npt.NDArray[np.int64], rows_out: npt.NDArray[np.int64],
    games_out: npt.NDArray[np.int64], /
) -> int: ...
