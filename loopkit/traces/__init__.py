"""The traces: reading other agents' transcripts and replaying them through the core.

Transcript adapters (one reader per format), tool maps (another agent's tool names as DeerFlow's), and the replay
that turns runs into reports. It uses the standard library and the core only.
"""
