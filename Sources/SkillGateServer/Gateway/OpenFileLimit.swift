import Glibc

/// The process's open-file limit. Each client connection and each upstream connection holds a descriptor, so a
/// gateway holding thousands of streams needs more than the usual soft limit of 1,024.
public enum OpenFileLimit {
    /// Raises the soft `RLIMIT_NOFILE` to the hard limit, as nginx's `worker_rlimit_nofile` does; returns the
    /// soft limit now in force (unchanged when raising fails). Raising the hard limit itself needs privileges:
    /// `LimitNOFILE=` in a systemd unit or `ulimit -Hn` in the shell that starts the gateway.
    @discardableResult
    public static func raiseToHardLimit() -> UInt64 {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        guard limit.rlim_cur < limit.rlim_max else { return UInt64(limit.rlim_cur) }
        let before = limit.rlim_cur
        limit.rlim_cur = limit.rlim_max
        return setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? UInt64(limit.rlim_max) : UInt64(before)
    }

    /// The soft limit in force.
    public static var current: UInt64 {
        var limit = rlimit()
        return getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? UInt64(limit.rlim_cur) : 0
    }
}
