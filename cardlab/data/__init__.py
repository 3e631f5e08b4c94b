"""Card data shipped with cardlab (all of it cardlab's own, see the rule digests)."""
