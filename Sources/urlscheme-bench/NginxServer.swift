import Foundation

/// nginx serving files from a scratch folder on 127.0.0.1, for reference rows.
/// Started in the foreground (`daemon off`) so it ends with `stop()` or with us.
final class NginxServer {
    let port: Int
    private let process: Process

    /// Serves `files` as `/0.bin`, `/1.bin`, …
    convenience init(root: URL, files: [Data]) throws {
        try self.init(root: root, paths: Dictionary(uniqueKeysWithValues: files.enumerated().map { ("\($0.offset).bin", $0.element) }))
    }

    /// Serves each body at its path (relative, e.g. `fresh/0.bin`); `serverConfig`
    /// is added inside the `server` block (e.g. `location` blocks adding headers).
    init(root: URL, paths: [String: Data], serverConfig: String = "") throws {
        let www = root.appendingPathComponent("www", isDirectory: true)
        for (path, body) in paths {
            let file = www.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try body.write(to: file)
        }
        guard let binary = ["/usr/sbin/nginx", "/usr/bin/nginx"].first(where: FileManager.default.isExecutableFile) else {
            throw BenchmarkError("nginx is not installed (Benchmarks/run.sh installs it: apt-get install nginx-light)")
        }
        var lastError = ""
        for attempt in 0..<10 {
            let port = 20_000 + Int((getpid() * 7 + Int32(attempt) * 101) % 20_000)
            let config = """
                daemon off;
                master_process off;
                worker_processes 1;
                pid \(root.path)/nginx.pid;
                error_log \(root.path)/error.log;
                events { worker_connections 1024; }
                http {
                    access_log off;
                    sendfile on;
                    keepalive_requests 100000;
                    client_body_temp_path \(root.path)/tmp;
                    proxy_temp_path \(root.path)/tmp;
                    fastcgi_temp_path \(root.path)/tmp;
                    uwsgi_temp_path \(root.path)/tmp;
                    scgi_temp_path \(root.path)/tmp;
                    server { listen 127.0.0.1:\(port); root \(www.path); \(serverConfig) }
                }
                """
            let configURL = root.appendingPathComponent("nginx.conf")
            try config.write(to: configURL, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["-c", configURL.path, "-p", root.path, "-e", "\(root.path)/error.log"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            if Self.waitUntilListening(port: port, process: process) {
                self.port = port
                self.process = process
                return
            }
            process.terminate()
            process.waitUntilExit()
            lastError = (try? String(contentsOf: root.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
        }
        throw BenchmarkError("nginx did not start: \(lastError.suffix(300))")
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }

    private static func waitUntilListening(port: Int, process: Process) -> Bool {
        for _ in 0..<100 {
            guard process.isRunning else { return false }
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            close(fd)
            if connected == 0 { return true }
            usleep(20_000)
        }
        return false
    }
}
