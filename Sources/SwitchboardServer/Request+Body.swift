import HTTPTypes
import Hummingbird
import NIOCore

extension Request {
    /// The whole body, or the error `tooLarge` makes when it has more than `limit` bytes.
    ///
    /// A declared `Content-Length` over the limit is refused before reading anything, so an oversized upload
    /// costs the server nothing; a chunked body is cut off as soon as it passes the limit.
    func bodyBytes(limit: Int, tooLarge: () -> ServerError) async throws -> [UInt8] {
        if let declared = headers[.contentLength].flatMap(Int.init), declared > limit {
            throw tooLarge()
        }
        do {
            let buffer = try await body.collect(upTo: limit)
            return Array(buffer.readableBytesView)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw tooLarge()
        } catch is NIOTooManyBytesError {
            // A chunked body has no length to check first: its collection stops at the limit with NIO's error,
            // which Hummingbird would answer with an empty 413.
            throw tooLarge()
        }
    }

    /// The limit as the sentence a 413 body carries.
    static func tooLargeMessage(limit: Int) -> String {
        "the request body is larger than the limit of \(limit) bytes"
    }
}
