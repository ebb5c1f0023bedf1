//! A tiny static file server for `dist/` on a free loopback port, so that the
//! browser tests need no Python or other server on the machine. It serves the
//! release build's precompressed copies the way nginx's `brotli_static on` and
//! `gzip_static on` do ([`negotiate`]), and keeps connections alive as nginx
//! does, so that `cargo xtask lighthouse` measures what a real host sends.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// How long an idle kept-alive connection waits for its next request.
const IDLE_TIMEOUT: Duration = Duration::from_secs(5);

pub struct StaticServer {
    pub port: u16,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl StaticServer {
    /// Binds 127.0.0.1 on a port the OS picks and serves `dir` until dropped.
    pub fn start(dir: PathBuf) -> std::io::Result<StaticServer> {
        let listener = TcpListener::bind(("127.0.0.1", 0))?;
        let port = listener.local_addr()?.port();
        listener.set_nonblocking(true)?;
        let stop = Arc::new(AtomicBool::new(false));
        let stop_flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            while !stop_flag.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let dir = dir.clone();
                        std::thread::spawn(move || {
                            let _ = serve_connection(stream, &dir);
                        });
                    }
                    Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => {
                        std::thread::sleep(std::time::Duration::from_millis(5));
                    }
                    Err(_) => break,
                }
            }
        });
        Ok(StaticServer { port, stop, thread: Some(thread) })
    }
}

impl Drop for StaticServer {
    /// Stops the server even when the tests failed or panicked.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// What the response depends on: the request line and two headers.
struct Request {
    method: String,
    target: String,
    accept_encoding: String,
    keep_alive: bool,
}

/// Reads one request's head; None when the client closed the connection.
fn read_request(reader: &mut impl BufRead) -> std::io::Result<Option<Request>> {
    let mut request_line = String::new();
    if reader.read_line(&mut request_line)? == 0 {
        return Ok(None);
    }
    let (mut accept_encoding, mut close) = (String::new(), false);
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header == "\r\n" || header == "\n" {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.eq_ignore_ascii_case("accept-encoding") {
                accept_encoding = value.trim().to_string();
            } else if name.eq_ignore_ascii_case("connection") {
                close = value.trim().eq_ignore_ascii_case("close");
            }
        }
    }
    let mut parts = request_line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let target = parts.next().unwrap_or("/").to_string();
    // Other methods may carry a body this server never reads: their connection ends.
    let bodiless = method == "GET" || method == "HEAD";
    let keep_alive = !close && bodiless && parts.next() == Some("HTTP/1.1");
    Ok(Some(Request { method, target, accept_encoding, keep_alive }))
}

/// Answers requests on one connection until the client closes it, asks to, or idles.
fn serve_connection(stream: TcpStream, dir: &Path) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(IDLE_TIMEOUT))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut stream = stream;
    while let Some(request) = read_request(&mut reader)? {
        answer(&mut stream, dir, &request)?;
        if !request.keep_alive {
            break;
        }
    }
    Ok(())
}

fn answer(stream: &mut TcpStream, dir: &Path, request: &Request) -> std::io::Result<()> {
    let with_body = request.method == "GET";
    let keep_alive = request.keep_alive;
    if request.method != "GET" && request.method != "HEAD" {
        let reply =
            Reply { status: "405 Method Not Allowed", kind: "text/plain", encoding: None, keep_alive };
        return respond(stream, &reply, b"method not allowed", true);
    }
    let path = request.target.split(['?', '#']).next().unwrap_or("/");
    let found = resolve(dir, path).and_then(|file| {
        let (sent, encoding) = negotiate(&file, &request.accept_encoding);
        std::fs::read(&sent).ok().map(|body| (file, encoding, body))
    });
    match found {
        Some((file, encoding, body)) => {
            let reply = Reply { status: "200 OK", kind: content_type(&file), encoding, keep_alive };
            respond(stream, &reply, &body, with_body)
        }
        None => {
            let reply = Reply { status: "404 Not Found", kind: "text/plain", encoding: None, keep_alive };
            respond(stream, &reply, b"not found", with_body)
        }
    }
}

/// The file to send for `file` and its `Content-Encoding`, chosen as nginx's
/// `brotli_static on` and `gzip_static on` choose: the `.br` copy when the request
/// accepts `br` and the copy exists, else the `.gz` copy likewise, else the file.
pub fn negotiate(file: &Path, accept_encoding: &str) -> (PathBuf, Option<&'static str>) {
    for (coding, suffix) in [("br", ".br"), ("gzip", ".gz")] {
        let mut copy = file.as_os_str().to_owned();
        copy.push(suffix);
        let copy = PathBuf::from(copy);
        if accepts(accept_encoding, coding) && copy.is_file() {
            return (copy, Some(coding));
        }
    }
    (file.to_path_buf(), None)
}

/// Whether an `Accept-Encoding` value lists `coding` without refusing it (`;q=0`).
fn accepts(accept_encoding: &str, coding: &str) -> bool {
    accept_encoding.split(',').any(|item| {
        let mut parts = item.split(';');
        let named = parts.next().is_some_and(|name| name.trim().eq_ignore_ascii_case(coding));
        let refused = parts.any(|parameter| {
            let parameter = parameter.trim();
            let weight = parameter.strip_prefix("q=").or_else(|| parameter.strip_prefix("Q="));
            weight.and_then(|q| q.trim().parse::<f64>().ok()) == Some(0.0)
        });
        named && !refused
    })
}

/// Maps a URL path to a file under `dir`, refusing anything that climbs out of it.
fn resolve(dir: &Path, url_path: &str) -> Option<PathBuf> {
    let relative = Path::new(url_path.trim_start_matches('/'));
    if relative.components().any(|part| !matches!(part, Component::Normal(_))) {
        return None;
    }
    let mut file = dir.join(relative);
    if file.is_dir() {
        file = file.join("index.html");
    }
    file.is_file().then_some(file)
}

fn content_type(file: &Path) -> &'static str {
    match file.extension().and_then(|ext| ext.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" => "application/json",
        "webmanifest" => "application/manifest+json",
        // Case notes: shown as text, as most static hosts do.
        "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// A response's status line and headers.
struct Reply {
    status: &'static str,
    kind: &'static str,
    encoding: Option<&'static str>,
    keep_alive: bool,
}

fn respond(stream: &mut TcpStream, reply: &Reply, body: &[u8], with_body: bool) -> std::io::Result<()> {
    let encoding = reply.encoding.map_or(String::new(), |coding| format!("Content-Encoding: {coding}\r\n"));
    let connection = if reply.keep_alive { "keep-alive" } else { "close" };
    let head = format!(
        "HTTP/1.1 {}\r\nContent-Type: {}\r\n{encoding}Vary: Accept-Encoding\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: {connection}\r\n\r\n",
        reply.status,
        reply.kind,
        body.len()
    )
    ;
    stream.write_all(head.as_bytes())?;
    if with_body {
        stream.write_all(body)?;
    }
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder of its own under the system's temporary directory.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temporary directory");
        dir
    }

    #[test]
    fn precompressed_copies_are_sent_as_nginx_static_modules_send_them() {
        let dir = scratch("negotiate");
        for name in ["app.js", "app.js.br", "app.js.gz", "style.css", "style.css.gz", "plain.svg"] {
            std::fs::write(dir.join(name), name).expect("write");
        }
        let js = dir.join("app.js");
        let sent = |file: &Path, accept: &str| {
            let (path, coding) = negotiate(file, accept);
            (path.file_name().unwrap().to_string_lossy().into_owned(), coding)
        };
        assert_eq!(sent(&js, "gzip, deflate, br"), ("app.js.br".into(), Some("br")));
        assert_eq!(sent(&js, "gzip, deflate"), ("app.js.gz".into(), Some("gzip")));
        assert_eq!(sent(&js, "BR;q=0.5"), ("app.js.br".into(), Some("br")));
        assert_eq!(sent(&js, "br;q=0, gzip"), ("app.js.gz".into(), Some("gzip")));
        assert_eq!(sent(&js, ""), ("app.js".into(), None));
        assert_eq!(sent(&js, "brotli, xgzip"), ("app.js".into(), None), "only whole codings count");
        assert_eq!(sent(&dir.join("style.css"), "br, gzip"), ("style.css.gz".into(), Some("gzip")));
        assert_eq!(sent(&dir.join("plain.svg"), "br, gzip"), ("plain.svg".into(), None));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_kept_alive_connection_answers_several_requests_with_the_brotli_copy() {
        use std::io::Read;
        let dir = scratch("keepalive");
        std::fs::write(dir.join("a.js"), "plain").expect("write");
        std::fs::write(dir.join("a.js.br"), "brotli").expect("write");
        let server = StaticServer::start(dir.clone()).expect("server");
        let mut stream = TcpStream::connect(("127.0.0.1", server.port)).expect("connect");
        let ask = "GET /a.js HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip, br\r\n\r\n";
        stream.write_all(format!("{ask}{ask}").as_bytes()).expect("send");
        stream.write_all(b"GET /a.js HTTP/1.1\r\nConnection: close\r\n\r\n").expect("send");
        let mut answer = String::new();
        stream.read_to_string(&mut answer).expect("read until the server closes");
        assert_eq!(answer.matches("HTTP/1.1 200 OK").count(), 3, "{answer}");
        assert_eq!(answer.matches("Content-Encoding: br\r\n").count(), 2, "{answer}");
        assert_eq!(answer.matches("Content-Type: text/javascript").count(), 3, "{answer}");
        assert!(answer.ends_with("Connection: close\r\n\r\nplain"), "{answer}");
        let mut post = TcpStream::connect(("127.0.0.1", server.port)).expect("connect");
        post.write_all(b"POST /a.js HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc").expect("send");
        let mut refused = String::new();
        post.read_to_string(&mut refused).expect("read until the server closes");
        assert!(refused.starts_with("HTTP/1.1 405") && refused.contains("Connection: close"), "{refused}");
        drop(server);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
