"""The progress-event line protocol between SCons and opkg: scons_glue writes one
`@@opkg {json}` line per event on stdout, engine picks them out of the tool output.

A module of its own so the engine reads events without importing what runs inside SCons
(scons_glue and the cache and output-record code it needs): the null-build fast path starts
quicker."""

EVENT_PREFIX = "@@opkg "
