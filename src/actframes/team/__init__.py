"""Task mining for a team: many people's stores compiled on an engine (in process or on
Ray) into Parquet datasets, and the team instruments over them (docs/team.md).

Layers: ``manifest`` (who, which store, which zone and days) → ``tasks`` (pure units of
work over one store) → ``engine`` (runs them) → ``run`` (the driver: skipping, writing
``datasets``) → ``report``/``charts``/``query`` (read the datasets only).
"""
