package dev.nunac.passes.cost;

/** Busy fraction of one server (link, port, stack, NIC, CU injection, router injection or ejection) over the collective's duration. */
public record Utilisation(String server, String kind, double busyNs, double fraction) {}
