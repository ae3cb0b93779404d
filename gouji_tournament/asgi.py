import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gouji_tournament.settings")
application = get_asgi_application()

# The live streams' shared subscription (matches/push.py) connects as the server starts, not
# when the first page of a crowd asks for it.
from matches.push import hub  # noqa: E402

hub.start()
