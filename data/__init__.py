"""fairypost's shipped data: game definitions (variants/) and fonts (fonts/).

Installed as the package ``fairypost_data``; read through ``rules.resources``."""
