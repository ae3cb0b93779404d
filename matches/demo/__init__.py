"""The demo events (`manage.py load_demo`, `make demo`), built through the services by one
builder for every game (`builder.py`); the tests' builder and the benchmarks use it too."""
