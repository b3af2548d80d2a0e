fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["bench", "dots", ..] => quartet::cli::dots::bench(&args[2..]),
        ["dots", ..] => quartet::cli::dots::run(&args[1..]),
        _ => {
            println!("quartet: under construction");
            0
        }
    };
    std::process::exit(code);
}
