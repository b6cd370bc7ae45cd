import Foundation

/// Times closures with a monotonic clock and reports the median of several runs,
/// after a warm-up run, so one scheduler hiccup does not decide a row.
enum Stopwatch {
    static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    /// Median wall time in seconds of `iterations` calls of `body` (after one warm-up).
    static func median(iterations: Int, _ body: () throws -> Void) rethrows -> Double {
        try body()
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        for _ in 0..<max(1, iterations) {
            let start = now()
            try body()
            samples.append(now() - start)
        }
        samples.sort()
        return samples[samples.count / 2]
    }

    /// The process's peak resident set so far (`getrusage`, kilobytes on Linux),
    /// for rows that report memory as growth over the peak before them.
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) * 1024
    }
}
