# Placeholder replaced by the install/export work.
