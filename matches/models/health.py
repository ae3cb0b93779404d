from django.db import models


class WorkerProbe(models.Model):
    """Written by the `probe_worker` task, so the health check and CI can prove that a task
    went through the broker, ran in a worker process and reached the database."""

    token = models.CharField(max_length=64, unique=True)
    worker_pid = models.IntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.token} (pid {self.worker_pid})"
