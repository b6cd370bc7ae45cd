import Foundation

// Placeholder entry point until `urlscheme get` lands (issue: package foundation).
FileHandle.standardError.write(Data("usage: urlscheme get URL [-o FILE]\n".utf8))
exit(2)
