"""First-party business services, one module each."""

from compoworld.services.library.crm import Crm

SERVICES = [Crm]
