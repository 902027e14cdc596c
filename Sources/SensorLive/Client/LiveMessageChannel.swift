import SensorRuntime

/// The hand-off between ``LiveConnection``'s reader thread and the task that iterates its
/// messages: at most ``BoundedHandOff/capacity`` messages wait in it, and while it is full the
/// thread reads nothing from the socket.
///
/// So a consumer slower than the daemon (a `top` drawing on a slow terminal, an MQTT bridge
/// whose broker stalls) holds a few messages, not all the daemon wrote: the rest stays in the
/// socket, whose full buffer makes the daemon coalesce (SPEC §22: a slow client gets the
/// latest state, never a growing queue). Memory is bounded by the capacity, not by time.
typealias LiveMessageChannel = BoundedHandOff<LiveMessage>
