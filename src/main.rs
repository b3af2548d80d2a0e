fn main() {
    println!("quartet: under construction");
}
