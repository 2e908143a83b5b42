#ifndef SG_TEST_PROXY_ENVIRONMENT_H
#define SG_TEST_PROXY_ENVIRONMENT_H

/// The listening socket of the tests' loopback proxy stand-in, bound to 127.0.0.1 before the test process's `main`
/// ran (-1 when that failed), and its port. The same constructor exported `http_proxy` and `HTTPS_PROXY` pointing at
/// it and `no_proxy=127.0.0.1,localhost`, so the environment is never changed while other threads read it.
int sg_test_proxy_listen_fd(void);
int sg_test_proxy_port(void);

#endif
