"""Pictures: the tile faces as vector shapes and a round's wall drawn as SVG."""
