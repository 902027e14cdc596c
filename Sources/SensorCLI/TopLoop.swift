import Glibc
import SensorLive
import SensorRuntime
import SensorTerminal

#if canImport(Glibc)
#endif

/// The state of one `top` run and what each event does to it; draws the frames.
struct TopLoop {
    let session: TopSession
    var size: TerminalSize
    var state = LiveState()
    var view = TopView()
    var connection = TopConnection.connecting
    var details: [String] = []
    private var renderer: ScreenRenderer
    private var decoder = KeyDecoder()
    private var repaint = true
    private var lastFrame: BootClock.Instant?
    private var frameScheduled = false

    init(session: TopSession, size: TerminalSize) {
        self.session = session
        self.size = size
        renderer = ScreenRenderer(colour: session.environment.colour)
    }

    /// Takes events until a way out; `schedule` asks for a `.frameDue` at an instant.
    mutating func consume(
        _ events: AsyncStream<TopEvent>, schedule: (BootClock.Instant) -> Void
    ) async -> (ExitCode, String?) {
        draw()
        for await event in events {
            if let end = take(event) { return end }
            let now = session.clock.now
            if repaint || lastFrame.map({ $0.duration(to: now) >= TopCommand.frameInterval }) ?? true {
                draw()
            } else if !frameScheduled, let last = lastFrame {
                frameScheduled = true
                schedule(last.advanced(by: TopCommand.frameInterval))
            }
        }
        return (.success, nil)
    }

    /// The rows shown now.
    var rows: [TopRow] { TopRow.rows(state, filter: view.filter, alertsOnly: view.alertsOnly) }

    /// Applies one event; returns the exit when it ends the run.
    mutating func take(_ event: TopEvent) -> (ExitCode, String?)? {
        switch event {
        case .input(let bytes):
            for key in decoder.keys(bytes) {
                let rows = rows
                switch view.handle(key, rows: rows, page: TopScreen.page(size)) {
                case .quit?: return (.success, nil)
                case .repaint?: repaint = true
                case .details(let id)?:
                    details = rows.first { $0.id == id }.map(session.details) ?? []
                case .silence(let rule, let sensor, let duration)?:
                    view.message = session.silence(rule: rule, sensor: sensor, duration: duration)
                case nil: break
                }
            }
        case .inputClosed:
            return (.failure, "the terminal went away")
        case .signal(let s):
            guard s == SIGWINCH else { return (.success, nil) }
            size = session.terminal.size() ?? size
            repaint = true
        case .live(let e):
            switch e {
            case .absent:
                if case .live = connection { connection = .gone(since: session.wallClock.now.seconds) }
            case .connected:
                break
            case .message(let m):
                state.apply(m)
                if connection != .standalone { connection = .live }
                if case .snapshot = m { session.trimMemory() }
                if case .error(let text) = m { view.message = "the daemon says: " + text }
            case .lost:
                connection = .gone(since: session.wallClock.now.seconds)
            }
        case .tick:
            break
        case .frameDue:
            frameScheduled = false
        }
        return nil
    }

    /// Draws a frame: only the cells that changed, unless a repaint is due.
    mutating func draw() {
        let rows = rows
        view.settle(rows)
        view = TopScreen.scrolled(view, rows: rows, size: size)
        let screen = TopScreen(
            state: state, rows: rows, view: view, connection: connection, now: session.wallClock.now.seconds,
            utf8: session.environment.utf8, details: details)
        let bytes = renderer.frame(screen.grid(size), repaint: repaint)
        repaint = false
        lastFrame = session.clock.now
        if !bytes.isEmpty { session.terminal.write(bytes) }
    }
}
