import NIOCore
import Switchboard

extension JSONWriter {
    /// The bytes as a buffer for a response, with one copy.
    var buffer: ByteBuffer { ByteBuffer(bytes: bytes) }
}
