"""A size cap on uploaded files inside Django.

DATA_UPLOAD_MAX_MEMORY_SIZE caps a request's body except its files, and FILE_UPLOAD_MAX_MEMORY_SIZE
only decides when a file goes to a temporary file on disk. This handler, first in
FILE_UPLOAD_HANDLERS, stops reading a file at FILE_UPLOAD_MAX_SIZE: the file is dropped and the
request marked `upload_too_large`, so the form says "too big" instead of reading on. nginx's
`client_max_body_size` (deploy/nginx.conf) refuses larger bodies before they reach Django.
"""

from __future__ import annotations

from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler, SkipFile


class CappedUploadHandler(FileUploadHandler):
    def new_file(self, *args, **kwargs):
        super().new_file(*args, **kwargs)
        self.received = 0

    def receive_data_chunk(self, raw_data, start):
        self.received += len(raw_data)
        # A view may allow more before it reads the files (a score sheet's photo).
        limit = getattr(self.request, "upload_max_size", settings.FILE_UPLOAD_MAX_SIZE)
        if self.received > limit:
            self.request.upload_too_large = True
            raise SkipFile
        return raw_data  # the next handler (memory or temporary file) keeps it

    def file_complete(self, file_size):
        return None  # the next handler makes the file
