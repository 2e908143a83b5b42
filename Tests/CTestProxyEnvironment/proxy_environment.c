// Sets the proxy variables of the whole test process once, before `main` (a constructor): libcurl reads them from
// the environment, and setenv while other threads read `environ` — Foundation's Process.run, posix_spawn of MCP
// servers, libcurl's getenv — is undefined behaviour (a parallel test run crashed in Process.run's copy of it).
#include "proxy_environment.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int listen_fd = -1;
static int listen_port = 0;

__attribute__((constructor)) static void sg_prepare_proxy_environment(void) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return;
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0 || listen(fd, 128) != 0
        || getsockname(fd, (struct sockaddr *)&address, &length) != 0) {
        close(fd);
        return;
    }
    listen_fd = fd;
    listen_port = ntohs(address.sin_port);
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d", listen_port);
    setenv("http_proxy", url, 1);
    setenv("HTTPS_PROXY", url, 1);
    unsetenv("https_proxy");
    unsetenv("ALL_PROXY");
    unsetenv("all_proxy");
    setenv("no_proxy", "127.0.0.1,localhost", 1);
    unsetenv("NO_PROXY");
}

int sg_test_proxy_listen_fd(void) { return listen_fd; }
int sg_test_proxy_port(void) { return listen_port; }
