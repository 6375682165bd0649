// The yardstick of `make bench-startup`: a bare Foundation program that
// prints the date. Built with `swiftc -O`, outside the package.
import Foundation

print(Date())
