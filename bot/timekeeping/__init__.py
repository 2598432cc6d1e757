"""Time in the service: clocks and deadlines (clock), what is due and the sweep that does it
(reminders), and the scheduler that wakes the sweep (scheduler)."""
