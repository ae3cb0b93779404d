import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gouji_tournament.settings")
application = get_wsgi_application()
