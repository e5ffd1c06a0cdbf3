//! OpenSSH signatures (SSHSIG) for orders, notices and reports.
