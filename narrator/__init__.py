"""narrator: a voice-narrated game master for social-deduction party games."""

__version__ = "0.1.0"
