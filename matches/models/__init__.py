"""Models of the matches app, one module per room. Import every model here."""
from .health import WorkerProbe

__all__ = ["WorkerProbe"]
