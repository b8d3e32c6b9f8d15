# Stand-in for pympler (no Debian package; PyPI is not reachable here). The SDK imports it only for
# konfuzio_sdk.utils.memory_size_of, which no flow of test/http/sdkDataLayer.test.ts calls; asizeof.py
# gives a shallow size so that a call would still answer rather than fail.
