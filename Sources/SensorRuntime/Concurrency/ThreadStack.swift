import CLinux

/// The calling thread's stack, for a thread that sleeps long between bursts of deep calls.
///
/// A page of stack, once touched, stays resident for the thread's life, though the calls that
/// touched it returned long ago: a BMC's poll thread goes 44 KiB deep in FreeIPMI and libgcrypt
/// and then sleeps for seconds: 0.6-0.8 MiB of such pages at 20 BMCs (bench/README.md).
public enum ThreadStack {
    /// Gives back the pages more than a page below the caller's frame, the way glibc gives
    /// back a finished thread's stack; they come back zeroed at their next use, a minor fault
    /// each. Only on threads made by ``DetachedThread``. Returns the length of the range given
    /// back, resident or not (0 when the kernel refused, which changes nothing but the memory kept).
    @discardableResult
    public static func release() -> Int { max(0, sw_stack_release()) }
}
