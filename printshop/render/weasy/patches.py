"""Every patch printshop makes to WeasyPrint, in the order they are applied (a patch after
those it builds on). render/weasy/registry.py checks and installs them."""

from printshop.render.weasy import column_balance, column_span
from printshop.render.weasy.registry import register

register(column_span.PATCH)
register(column_balance.BALANCE)
register(column_balance.TRIAL)
