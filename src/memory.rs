//! Table sizes checked against the machine before anything is allocated, so an absurd
//! `--hash-mb` (or `--tt-bits`) is refused with a message instead of ending in the
//! allocator's abort (`memory allocation of ... failed`, SIGABRT).

/// The machine's physical memory in MiB, when the system tells.
pub fn physical_mib() -> Option<u64> {
    #[cfg(unix)]
    {
        // SAFETY: sysconf only reads system configuration values.
        let (pages, size) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        if pages > 0 && size > 0 {
            return Some((pages as u64).saturating_mul(size as u64) >> 20);
        }
    }
    None
}

/// `Ok` when `total_mib` MiB of tables (what `flag value` asks for) can be had: no more
/// than the physical memory, and address space the allocator grants now. The trial
/// reservation touches no page, so it costs nothing even when large.
pub fn check_tables(flag: &str, value: &str, total_mib: u64) -> Result<(), String> {
    if let Some(phys) = physical_mib() {
        if total_mib > phys {
            return Err(format!(
                "{flag} {value} needs {total_mib} MiB of tables, more than the {phys} MiB of \
                 memory of this machine"
            ));
        }
    }
    let bytes = total_mib
        .checked_mul(1 << 20)
        .and_then(|b| usize::try_from(b).ok())
        .ok_or_else(|| format!("{flag} {value}: {total_mib} MiB is beyond the address space"))?;
    let mut trial: Vec<u8> = Vec::new();
    trial
        .try_reserve_exact(bytes)
        .map_err(|e| format!("{flag} {value}: cannot allocate {total_mib} MiB of tables: {e}"))
}

/// Largest `--hash-mb`, whatever the machine.
pub const MAX_HASH_MB: usize = 65_536;

/// A `--hash-mb` value whose tables take `tables_mib` MiB: 1 to [`MAX_HASH_MB`], and the
/// tables must fit this machine (see [`check_tables`]).
pub fn check_hash_mb(mb: usize, tables_mib: u64) -> Result<(), String> {
    if !(1..=MAX_HASH_MB).contains(&mb) {
        return Err(format!(
            "--hash-mb must be between 1 and {MAX_HASH_MB} (MiB), within the machine's memory"
        ));
    }
    check_tables("--hash-mb", &mb.to_string(), tables_mib)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_tables_pass_and_more_than_the_machine_fails() {
        assert_eq!(check_tables("--hash-mb", "1", 1), Ok(()));
        let Some(phys) = physical_mib() else { return };
        #[cfg(target_os = "linux")]
        {
            // /proc/meminfo's MemTotal leaves out memory the kernel reserved at boot.
            let info = std::fs::read_to_string("/proc/meminfo").unwrap();
            let kb: u64 = info
                .lines()
                .find_map(|l| l.strip_prefix("MemTotal:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
                .unwrap();
            assert!(
                kb >> 10 <= phys && phys < (kb >> 10) * 11 / 10,
                "{kb} kB, {phys} MiB"
            );
        }
        let err = check_tables("--hash-mb", "x", phys + 1).unwrap_err();
        assert!(err.starts_with("--hash-mb x needs"), "{err}");
        assert!(check_tables("--tt-bits", "99", u64::MAX >> 10).is_err());
    }
}
