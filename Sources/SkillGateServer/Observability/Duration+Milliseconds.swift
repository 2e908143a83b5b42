extension Duration {
    /// The duration in milliseconds, with its fraction.
    var inMilliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }

    /// Milliseconds to two decimals, as the log's timing fields show them (`skills_embeddings_ms`, ...).
    var logMilliseconds: Double {
        (inMilliseconds * 100).rounded() / 100
    }
}
