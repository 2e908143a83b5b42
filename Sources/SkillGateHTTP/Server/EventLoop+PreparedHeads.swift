extension EventLoop {
    /// Between turns: writes the stream heads handed over during the last turn (`HTTPResponder.prepareStreamHead`).
    /// The turn's work is done by now, the upstream requests it started among it, so the heads are written while the
    /// upstreams work, not after their first answers (decision 0087).
    func writePreparedHeads() {
        let responders = headsToWrite
        headsToWrite.removeAll(keepingCapacity: true)
        for responder in responders { responder.writePreparedHead() }
    }
}
