"""Reading a picture into an RGB array, with the size limits the scanner keeps.

Pillow reads the file (its header first, so an oversized picture is refused
before it is decoded); OpenCV does the rest of the scanning.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np

from ..errors import ScanError
from ..io.files import read_bounded

__all__ = ["MAX_FILE_BYTES", "MAX_PIXELS", "MAX_SIDE", "MIN_SIDE", "load_image", "image_source"]

#: Pictures larger than this many pixels are refused (a 8000 x 5000 photo; phone screenshots are ~1-4 MP).
MAX_PIXELS = 40_000_000
#: Picture files larger than this are refused before they are read (bytes; a 40 MP PNG is ~30-120 MB).
MAX_FILE_BYTES = 200_000_000
#: Pictures are scaled down to at most this many pixels on their longer side before scanning.
MAX_SIDE = 2400
#: Pictures smaller than this on either side are refused: no board can be read from them.
MIN_SIDE = 32


def image_source(image) -> str | None:
    """The file name an image argument names, for messages (None for bytes or arrays)."""
    return str(image) if isinstance(image, (str, Path)) else None


def load_image(image) -> tuple[np.ndarray, float]:
    """A picture as an RGB array, scaled so that its longer side is at most :data:`MAX_SIDE`.

    Parameters
    ----------
    image : str, Path, bytes or numpy.ndarray
        A file name, the encoded bytes of a picture (PNG, JPEG, WebP, ...),
        or an array of shape (H, W, 3) RGB or (H, W) grey, dtype uint8.

    Returns
    -------
    rgb : numpy.ndarray
        Shape (h, w, 3), uint8.
    scale : float
        Pixels of ``rgb`` per pixel of the original picture (1.0 when not scaled).

    Raises
    ------
    ScanError
        The file cannot be opened or is not a picture, the picture is
        truncated, larger than :data:`MAX_PIXELS` or smaller than
        :data:`MIN_SIDE` on a side.
    """
    from PIL import Image, UnidentifiedImageError

    path = image_source(image)
    if isinstance(image, np.ndarray):
        rgb = _array_rgb(image, path)
    else:
        try:
            data = read_bounded(image, MAX_FILE_BYTES) if path is not None else bytes(image)
        except OSError as err:
            raise ScanError(f"cannot read the file: {err.strerror or err}", path) from None
        try:
            with Image.open(io.BytesIO(data)) as pic:
                _check_size(pic.size[0], pic.size[1], path)
                rgb = np.asarray(pic.convert("RGB"))
        except ScanError:
            raise
        except UnidentifiedImageError:
            raise ScanError("not a picture Pillow can read (PNG, JPEG, WebP, BMP, ...)", path) from None
        except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as err:
            raise ScanError(f"the picture cannot be decoded ({err})", path) from None
    return _fit(rgb)


def _array_rgb(array: np.ndarray, path: str | None) -> np.ndarray:
    if array.dtype != np.uint8 or array.ndim not in (2, 3) or (array.ndim == 3 and array.shape[2] not in (3, 4)):
        raise ScanError(f"an image array must be uint8 of shape (H, W), (H, W, 3) or (H, W, 4), "
                        f"not {array.dtype} {array.shape}", path)
    _check_size(array.shape[1], array.shape[0], path)
    if array.ndim == 2:
        return np.repeat(array[:, :, None], 3, axis=2)
    return np.ascontiguousarray(array[:, :, :3])


def _check_size(width: int, height: int, path: str | None) -> None:
    if width * height > MAX_PIXELS:
        raise ScanError(f"the picture is {width}x{height} pixels, more than the {MAX_PIXELS:,} the scanner "
                        "reads; scale it down first", path)
    if min(width, height) < MIN_SIDE:
        raise ScanError(f"the picture is {width}x{height} pixels, too small to hold a board "
                        f"(at least {MIN_SIDE} on each side)", path)


def _fit(rgb: np.ndarray) -> tuple[np.ndarray, float]:
    side = max(rgb.shape[:2])
    if side <= MAX_SIDE:
        return rgb, 1.0
    import cv2

    scale = MAX_SIDE / side
    size = (round(rgb.shape[1] * scale), round(rgb.shape[0] * scale))
    return cv2.resize(rgb, size, interpolation=cv2.INTER_AREA), scale
