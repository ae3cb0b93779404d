"""The computation side's answer to `deal_result_changed`: queue the deal's settlement."""
from __future__ import annotations

from django.dispatch import receiver

from matches.signals import deal_result_changed


@receiver(deal_result_changed, dispatch_uid="standings.settle_deal")
def queue_settlement(sender, deal_id: int, **kwargs) -> None:
    from matches.models import Deal
    from matches.tasks import enqueue, settle_deal

    deal = Deal.objects.select_related("match__round").filter(pk=deal_id).first()
    if deal is None:
        return
    event_id = deal.match.round.event_id
    enqueue(settle_deal, event_id, f"match:{deal.match_id}", {"deal_id": deal_id})
