"""QR codes as the pages and the printed documents draw them: inline SVG, paths only."""

from __future__ import annotations

import io


def qr_svg(text: str, *, box: int, border: int = 4) -> str:
    """The QR code of ``text`` as an inline ``<svg>`` element (no XML declaration, no styles):
    each module ``box`` units wide, with a quiet zone ``border`` modules wide."""
    import qrcode  # start-up: only a page or a document that shows a code loads it
    import qrcode.image.svg  # start-up

    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, box_size=box, border=border)
    buffer = io.BytesIO()
    image.save(buffer)
    svg = buffer.getvalue().decode("utf-8")
    return svg[svg.index("<svg") :]
