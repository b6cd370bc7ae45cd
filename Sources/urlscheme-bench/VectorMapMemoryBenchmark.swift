import Foundation

/// A 2048×2048 @1x snapshot of the heaviest Florence view (centred on tile
/// 14/8704/5971, zoom 15: 25 z14 tiles, the densest of the archive) drawn by
/// `urlscheme get … --tiles` in a child process, so its peak resident memory
/// (`wait4`'s rusage) is the whole load's: open the archive, read, inflate,
/// decode, style, draw, encode PNG. Goal: under 300 MB (issue 25).
enum VectorMapMemoryBenchmark {
    static let goalBytes = 300 << 20

    static func rows(_ context: BenchmarkContext) throws -> [BenchmarkRow] {
        let archive = try VectorTileBenchmarks.florence()
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("urlscheme").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw BenchmarkError("build the urlscheme product beside urlscheme-bench: \(binary) is missing")
        }
        let output = context.workDirectory.appendingPathComponent("florence-2048.png").path
        let url = "map://?latitude=43.779&longitude=11.261&zoom=15&width=2048&height=2048&tiles=florence"
        let (status, seconds, peak) = try run(binary, ["get", url, "--no-cache", "--tiles", "florence=" + archive.path, "-o", output])
        guard status == 0 else { throw BenchmarkError("urlscheme get \(url) exited with \(status)") }
        let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        return [BenchmarkRow(name: "vectormap-florence-2048-1x-process", ours: seconds, reference: nil, referenceName: "",
                             goal: nil, detail: "peak RSS \(peak >> 20) MB (goal < \(goalBytes >> 20) MB\(peak < goalBytes ? ", met" : ", MISSED")), PNG \(size) B")]
    }

    /// Runs `executable` to its end: exit status, seconds, peak resident bytes.
    private static func run(_ executable: String, _ arguments: [String]) throws -> (Int32, Double, Int) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let start = Date()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw BenchmarkError("cannot start \(executable): error \(spawned)") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exit, Date().timeIntervalSince(start), Int(usage.ru_maxrss) * 1024)
    }
}
