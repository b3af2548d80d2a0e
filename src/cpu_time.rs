//! CPU time of this thread or this process, for the benches: on a machine shared with
//! other work, wall time measures the neighbours too, CPU time only our own work.

/// CPU seconds used by the calling thread (`None` where the clock is unavailable).
pub fn thread_seconds() -> Option<f64> {
    seconds(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// CPU seconds used by the whole process, every thread (`None` where the clock is
/// unavailable).
pub fn process_seconds() -> Option<f64> {
    seconds(libc::CLOCK_PROCESS_CPUTIME_ID)
}

fn seconds(clock: libc::clockid_t) -> Option<f64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec we pass.
    let rc = unsafe { libc::clock_gettime(clock, &mut ts) };
    (rc == 0).then_some(ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clocks_run_forward_with_work() {
        let (t0, p0) = (thread_seconds().unwrap(), process_seconds().unwrap());
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        let (t1, p1) = (thread_seconds().unwrap(), process_seconds().unwrap());
        assert!(t1 > t0 && p1 > p0, "{t0} {t1} {p0} {p1}");
        // The process has run at least as long as this thread.
        assert!(p1 >= t1);
    }
}
