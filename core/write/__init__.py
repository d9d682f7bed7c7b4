"""Every write to a bank: composed as a plan under the lock, checked by the gates, committed with a
journal so a crash leaves the bank before or after, never between."""
